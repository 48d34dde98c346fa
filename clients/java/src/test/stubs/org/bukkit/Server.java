package org.bukkit;

import org.bukkit.command.CommandSender;
import org.bukkit.command.ConsoleCommandSender;
import org.bukkit.scheduler.BukkitScheduler;

/** Stub of Bukkit's Server. */
public interface Server {
  BukkitScheduler getScheduler();

  boolean dispatchCommand(CommandSender sender, String commandLine);

  ConsoleCommandSender getConsoleSender();
}
