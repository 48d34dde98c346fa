package org.bukkit.command;

/** Stub of Bukkit's CommandSender. */
public interface CommandSender {
  void sendMessage(String message);

  String getName();
}
