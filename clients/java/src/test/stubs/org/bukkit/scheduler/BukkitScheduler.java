package org.bukkit.scheduler;

import java.util.function.Consumer;
import org.bukkit.plugin.Plugin;

/** Stub of Bukkit's BukkitScheduler. */
public interface BukkitScheduler {
  BukkitTask runTask(Plugin plugin, Runnable task);

  BukkitTask runTaskLater(Plugin plugin, Runnable task, long delay);

  BukkitTask runTaskTimer(Plugin plugin, Runnable task, long delay, long period);

  void runTaskTimer(Plugin plugin, Consumer<? super BukkitTask> task, long delay, long period);
}
