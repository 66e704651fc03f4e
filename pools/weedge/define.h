// define.go: the pool's states, its time constants and its (unused) errors.
#pragma once

#include <chrono>
#include <cstdint>
#include <system_error>

#include "pools/core/clock.h"

namespace poolscope::weedge {

inline constexpr std::int32_t WorkerPool_Stat_Uninitialized = 0;
inline constexpr std::int32_t WorkerPool_Stat_Start = 1;
inline constexpr std::int32_t WorkerPool_Stat_Running = 2;
inline constexpr std::int32_t WorkerPool_Stat_Stoping = 3;  // sic
inline constexpr std::int32_t WorkerPool_Stat_Stop = 4;

inline constexpr Nanos DefaultTimeOut = std::chrono::seconds(30);
inline constexpr std::int64_t workerGoroutineLifeTime = 30;     // seconds (whole Unix seconds)
inline constexpr std::int64_t addWaitingTimeWhenStopPool = 30;  // seconds

// 一些错误码 ("some error codes"): declared, returned by nothing.
enum Error { ErrTimeout = 1, ErrInterrupt };
const std::error_category& error_category();
std::error_code make_error_code(Error e);

// C++: the Unix time the pool's clock origin stands for. The pool compares
// whole Unix seconds (time.Now().Unix()), and addWorkerLastTime starts at 0,
// so "30 s since the last growth" holds from the start, as in Go, only if
// the clock reads like a Unix clock: 2021-12-01 00:00:00 UTC, the month of
// the seed article.
inline constexpr std::int64_t kUnixAtOrigin = 1'638'316'800;

}  // namespace poolscope::weedge

template <>
struct std::is_error_code_enum<poolscope::weedge::Error> : std::true_type {};
