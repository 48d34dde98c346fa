package org.bukkit.plugin.java;

import java.util.logging.Logger;
import org.bukkit.Server;
import org.bukkit.command.Command;
import org.bukkit.command.CommandSender;
import org.bukkit.plugin.Plugin;

/** Stub of Bukkit's JavaPlugin. */
public abstract class JavaPlugin implements Plugin {
  public void onEnable() {}

  public void onDisable() {}

  public final Server getServer() {
    throw new UnsupportedOperationException("stub");
  }

  public Logger getLogger() {
    throw new UnsupportedOperationException("stub");
  }

  public boolean onCommand(CommandSender sender, Command command, String label, String[] args) {
    return false;
  }
}
