/**
 * The JSON room: a strict reader of JSON text, depending on nothing of the library. Internal: not
 * part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.json;
