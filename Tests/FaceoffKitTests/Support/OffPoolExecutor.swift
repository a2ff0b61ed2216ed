import FaceoffKit
import FaceoffMQTT
import Foundation

/// Runs a test's long CPU-bound work on a thread of its own instead of Swift's cooperative pool.
///
/// Every test in the process shares the cooperative pool, which has one thread per core (two
/// here). A test that keeps those threads busy for seconds, such as a fuzzer decoding hundreds
/// of mutated documents or forty games replayed play by play, delays every other test's tasks
/// by as long, and their own deadlines (a webhook worker given 20 s to deliver) ran out under
/// it. A dispatch queue is no escape on Linux: the pool is Dispatch's global queue. This
/// executor owns one thread, so the work takes turns there and shares the cores with the rest
/// through the kernel's scheduler.
///
///     await withTaskExecutorPreference(OffPoolExecutor.shared) { ... }
final class OffPoolExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = OffPoolExecutor()
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "faceoff.tests.off-pool"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
