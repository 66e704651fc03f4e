// What the operating system gives poolscope's real threads, one side per
// platform (the build picks the file):
//   platform.desktop.cpp  Linux: pthread_setname_np, sched_getaffinity, CLOCK_THREAD_CPUTIME_ID
//   platform.web.cpp      a browser: no OS threads to start or name, and one
//                         CPU (a simulated run models its own, sim::Settings::cpus)
#pragma once

#include <string>

namespace poolscope::platform {

// Names the calling OS thread (visible in gdb, top and perf; Linux keeps 15
// characters).
void name_this_thread(const std::string& name);
// The CPUs this process may run on (its affinity), at least 1.
int usable_cpus();
// Whether real threads can be started at all (a web page has none).
bool has_threads();
// CPU time the calling thread has used, in ms (a frame's cost without the
// time the machine gave to other threads). A page has one thread, and no
// CPU clock: its wall clock.
double thread_cpu_ms();

}  // namespace poolscope::platform
