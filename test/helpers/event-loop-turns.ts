/**
 * How long the event loop was held, measured in CPU time rather than wall time, so that the figure
 * does not grow with the machine's load (used by the reload test and bench/config-load.ts).
 */

/**
 * The most CPU time (user + system, whole process) spent between two consecutive runs of a 10 ms
 * timer, i.e. in one stretch the event loop could not serve anything else.
 */
export function cpuPerTurn(): { stop(): number } {
  let last = process.cpuUsage();
  let longest = 0;
  const timer = setInterval(() => {
    const used = process.cpuUsage(last);
    longest = Math.max(longest, (used.user + used.system) / 1000);
    last = process.cpuUsage();
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return longest;
    },
  };
}
