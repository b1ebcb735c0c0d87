//! The worker threads of every command's `--jobs`.

use crate::Error;

/// A pool of `jobs` worker threads (0: one per core); `--jobs` names the flag of a refusal.
pub fn thread_pool(jobs: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::BadFlag {
            flag: "--jobs",
            value: jobs.to_string(),
            message: e.to_string(),
        })
}
