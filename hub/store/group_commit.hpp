// Writes to one SQLite connection from many request threads, acknowledged only once committed,
// with one commit (one fsync under synchronous=FULL) for every write that arrived meanwhile: one
// writer thread takes all queued jobs, runs each under a savepoint of one BEGIN IMMEDIATE
// transaction, in arrival order, then commits. A job that throws is rolled back alone (its
// caller gets the exception); a commit that fails fails every job of its batch (nothing of them
// was written). Jobs of one batch see each other's writes: each runs as if alone, after the
// ones before it, which is what makes a decision inside a job a compare-and-set.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "front/store/sqlite.hpp"

namespace lq::hub {

class group_commit {
 public:
  /// At most `max_batch` jobs per transaction. Starts the writer thread.
  explicit group_commit(front::database& db, size_t max_batch = 256);
  group_commit(const group_commit&) = delete;
  group_commit& operator=(const group_commit&) = delete;
  /// Runs what is queued, then stops the writer thread.
  ~group_commit();

  /// Runs `job` on the connection inside the next transaction and returns once that transaction
  /// has committed; rethrows what the job threw (only its own writes are undone), or the
  /// database_error of a failed commit (none of the batch was written).
  void run(const std::function<void(front::database&)>& job);

  /// Transactions committed so far (for the start-up report and tests).
  size_t commits() const;

 private:
  struct pending {
    const std::function<void(front::database&)>* job;
    std::exception_ptr failure;
    bool done = false;
  };

  void write_loop();
  void write_batch(std::deque<pending*>& batch);

  front::database& db_;
  const size_t max_batch_;
  mutable std::mutex mutex_;
  std::condition_variable queued_;
  std::condition_variable finished_;
  std::deque<pending*> queue_;
  bool stopping_ = false;
  size_t commits_ = 0;
  std::thread writer_;
};

}  // namespace lq::hub
