import ServiceLifecycle

/// `faceoff run`'s daemon is a service of its group: a graceful shutdown (SIGTERM, Ctrl-C)
/// cancels it at once, and it returns once its watchers and router have ended (`run()`).
extension Daemon: Service {}
