package org.bukkit.command;

/** Stub of Bukkit's ConsoleCommandSender. */
public interface ConsoleCommandSender extends CommandSender {}
