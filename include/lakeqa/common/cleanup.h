// Temporary folders do not outlive the process: every folder MakeTempDir creates is registered here and
// removed on a normal exit (atexit) and, once InstallSignalCleanup ran, on SIGINT/SIGTERM/SIGHUP; RemoveAll
// of a registered folder forgets it. Verbs that handle the signals themselves (serve waits for them, run
// stops cleanly) exit normally afterwards, so the atexit path removes their folders too.
#pragma once

#include <functional>
#include <string>

namespace lakeqa {

void RegisterTempPath(const std::string& path);
void ForgetTempPath(const std::string& path);

// Runs on SIGINT/SIGTERM/SIGHUP before the folders are removed (e.g. killing running sandboxes, so that
// nothing writes into a folder being removed). Must be quick and thread-safe.
void AddTerminationHook(std::function<void()> fn);

// On SIGINT, SIGTERM or SIGHUP: run the hooks, remove the registered folders, then die of the signal as an
// unhandled one would (exit status 128+N). Call once from main, before other threads start; a verb that
// installs its own handler or blocks the signals to sigwait for them takes precedence.
void InstallSignalCleanup();

// Removes every registered folder now.
void RemoveTempPaths();

// What a termination signal does before the process ends: runs the hooks, then removes the registered
// folders. For a verb that takes the signals itself and must end at once, without unwinding (`lakeqa
// mcp`, whose reader blocks on stdin), before it calls _exit.
void CleanUpForTermination();

}  // namespace lakeqa
