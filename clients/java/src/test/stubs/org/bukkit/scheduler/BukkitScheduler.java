package org.bukkit.scheduler;

import org.bukkit.plugin.Plugin;

/** Stub of Bukkit's BukkitScheduler. */
public interface BukkitScheduler {
  BukkitTask runTask(Plugin plugin, Runnable task);

  BukkitTask runTaskLater(Plugin plugin, Runnable task, long delay);
}
