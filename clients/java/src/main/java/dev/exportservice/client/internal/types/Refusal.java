package dev.exportservice.client.internal.types;

/**
 * The verdict on an export outside the vocabulary: where ({@code path}, in the service's JSON-path
 * spelling), why ({@code reason}, the service's word: {@code command}, {@code entity}, ...), what
 * was found there, and one sentence saying all of it, as the service words it.
 *
 * @param path where, e.g. {@code content.datapack.anim_keyframes.open.7[2]}
 * @param reason why, as the service names it
 * @param found what was found there
 * @param message the sentence naming the path and what was found
 */
public record Refusal(String path, String reason, String found, String message) {}
