package org.bukkit.command;

/** Stub of Bukkit's Command. */
public abstract class Command {}
