/**
 * The model room: reads a parsed export into plain data ({@link
 * dev.exportservice.client.internal.model.ModelData}) and rewrites a model's tag through the SNBT
 * room, whose reader has the check's grammar and limits: the model reads what the check read,
 * never more. It knows nothing of the client or the safety check; the public {@code Model} and
 * {@code Animation} are built from its data. Internal: not part of the API, and may change in any
 * release.
 */
package dev.exportservice.client.internal.model;
