// The real JVM under the workload of tests/fidelity/java_golden_test.cpp:
// ThreadPoolExecutor(0, 50, 1 s, SynchronousQueue, CallerRunsPolicy), four
// bursts of 100 tasks of 50 ms, 3 s apart. Prints submit -> start percentiles
// (submit = the execute() call, start = the task's first line, as poolscope's
// queue wait), the threads started, the tasks the submitter ran, and the
// longest waits with when they were submitted.
//
//   javac Bursts.java && java Bursts [runs]      (OpenJDK 17; not built by CMake)
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

public class Bursts {
  public static void main(String[] args) throws Exception {
    AtomicInteger threads = new AtomicInteger();
    ThreadPoolExecutor ex = new ThreadPoolExecutor(0, 50, 1, TimeUnit.SECONDS, new SynchronousQueue<>(),
        r -> { threads.incrementAndGet(); return new Thread(r); }, new ThreadPoolExecutor.CallerRunsPolicy());
    Thread submitter = Thread.currentThread();
    List<long[]> recs = new ArrayList<>();  // submitted, started, by the caller
    long t0 = System.nanoTime();
    for (int burst = 0; burst < 4; burst++) {
      long due = t0 + burst * 3_000_000_000L;
      while (System.nanoTime() < due) LockSupport.parkNanos(Math.max(1, due - System.nanoTime() - 100_000));
      for (int i = 0; i < 100; i++) {
        long[] rec = {System.nanoTime(), 0, 0};
        ex.execute(() -> {
          rec[1] = System.nanoTime();
          if (Thread.currentThread() == submitter) rec[2] = 1;
          try { Thread.sleep(50); } catch (InterruptedException e) { }
        });
        recs.add(rec);
      }
    }
    ex.shutdown();
    ex.awaitTermination(1, TimeUnit.MINUTES);
    long[] waits = recs.stream().mapToLong(r -> r[1] - r[0]).sorted().toArray();
    long byCaller = recs.stream().filter(r -> r[2] == 1).count();
    System.out.printf("tasks %d, threads %d, by the caller %d; submit->start p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
        waits.length, threads.get(), byCaller, waits[waits.length / 2 - 1] / 1e6,
        waits[(int) Math.ceil(0.99 * waits.length) - 1] / 1e6, waits[waits.length - 1] / 1e6);
    recs.sort((a, b) -> Long.compare(b[1] - b[0], a[1] - a[0]));
    for (int i = 0; i < 4; i++)
      System.out.printf("  longest %d: %.3f ms, submitted %.1f ms into its burst%n", i + 1,
          (recs.get(i)[1] - recs.get(i)[0]) / 1e6, ((recs.get(i)[0] - t0) % 3_000_000_000L) / 1e6);
  }
}
