// What the operating system gives poolscope's real threads, one side per
// platform (the build picks the file):
//   platform.desktop.cpp  Linux: pthread_setname_np, sched_getaffinity
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

}  // namespace poolscope::platform
