package org.bukkit.plugin;

/** Stub of Bukkit's Plugin. */
public interface Plugin {}
