package org.bukkit.entity;

import org.bukkit.command.CommandSender;

/** Stub of Bukkit's Player. */
public interface Player extends CommandSender {}
