import Dispatch

/// Runs a test's long CPU-bound work on Dispatch's threads instead of Swift's cooperative pool.
///
/// Every test in the process shares the cooperative pool, which has one thread per core (two
/// here). A test that keeps those threads busy for seconds, such as a fuzzer decoding hundreds
/// of mutated documents, delays every other test's tasks by as long, and their own deadlines
/// (a webhook worker given 20 s to deliver) ran out under it. On threads of its own, the work
/// shares the cores with the rest through the kernel's scheduler.
///
///     await withTaskExecutorPreference(OffPoolExecutor.shared) { ... }
final class OffPoolExecutor: TaskExecutor {
    static let shared = OffPoolExecutor()
    private let queue = DispatchQueue(label: "faceoff.tests.off-pool", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
