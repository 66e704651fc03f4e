// What the simulation's `jvm` machine preset is made of, measured on the real
// JVM (docs/simulation.md, "The jvm preset"): Thread.start's cost to its
// caller, how long after start() a new thread runs, and how long after a
// SynchronousQueue.offer a thread parked in poll() runs (warm: after many
// rounds, the JIT has compiled the loop).
//
//   javac JvmCosts.java && java JvmCosts 400      (OpenJDK 17; not built by CMake)
import java.util.Arrays;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

public class JvmCosts {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    for (int round = 0; round < 3; round++) {
      long[] caller = new long[n], toRun = new long[n];
      for (int i = 0; i < n; i++) {
        long[] ran = new long[1];
        Thread t = new Thread(() -> ran[0] = System.nanoTime());
        long s = System.nanoTime();
        t.start();
        caller[i] = System.nanoTime() - s;
        t.join();
        toRun[i] = ran[0] - s;
        Thread.sleep(2);
      }
      Arrays.sort(caller);
      Arrays.sort(toRun);
      System.out.printf("Thread.start, round %d: caller p50 %.1f us; start -> run p50 %.1f us, p99 %.1f us%n", round,
          caller[n / 2] / 1e3, toRun[n / 2] / 1e3, toRun[n * 99 / 100] / 1e3);
    }
    SynchronousQueue<long[]> q = new SynchronousQueue<>();
    Thread taker = new Thread(() -> {
      try {
        for (;;) { long[] r = q.poll(10, TimeUnit.SECONDS); if (r == null) return; r[1] = System.nanoTime(); }
      } catch (InterruptedException e) { }
    });
    taker.start();
    long[] handoff = new long[n];
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < n; i++) {
        Thread.sleep(2);  // the taker is parked by now
        long[] r = new long[2];
        long s = System.nanoTime();
        while (!q.offer(r)) Thread.onSpinWait();
        while (r[1] == 0) LockSupport.parkNanos(50_000);
        handoff[i] = r[1] - s;
      }
      Arrays.sort(handoff);
      System.out.printf("SynchronousQueue hand-off, round %d: offer -> the taker runs p50 %.1f us, p99 %.1f us%n", round,
          handoff[n / 2] / 1e3, handoff[n * 99 / 100] / 1e3);
    }
    taker.interrupt();
  }
}
