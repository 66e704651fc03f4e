// The exceptions of java.util.concurrent that the executor throws, under
// their Java names so the code reads beside ThreadPoolExecutor.java. JDK 17
// throws them without messages (mainline added some); these carry none
// either, except where JDK 17 has one.
#pragma once

#include <stdexcept>
#include <string>

namespace poolscope::java {

// A constructor or setter was given a size or time the pool cannot have.
class IllegalArgumentException : public std::invalid_argument {
 public:
  explicit IllegalArgumentException(const std::string& what = "IllegalArgumentException")
      : std::invalid_argument(what) {}
};

// A null queue, thread factory, handler or task.
class NullPointerException : public std::logic_error {
 public:
  NullPointerException() : std::logic_error("NullPointerException") {}
};

// AbortPolicy's answer to a task the executor cannot take.
class RejectedExecutionException : public std::runtime_error {
 public:
  explicit RejectedExecutionException(const std::string& what) : std::runtime_error(what) {}
};

// A blocking queue wait ended because the waiting thread was interrupted.
class InterruptedException : public std::exception {
 public:
  const char* what() const noexcept override { return "InterruptedException"; }
};

}  // namespace poolscope::java
