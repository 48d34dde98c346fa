package org.bukkit.scheduler;

/** Stub of Bukkit's BukkitTask. */
public interface BukkitTask {
  void cancel();
}
