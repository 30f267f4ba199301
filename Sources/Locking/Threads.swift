import Glibc

/// Threads started and paused with pthread's own calls: the worker links no Foundation (whose
/// `Thread` would bring it, CoreFoundation's set-up and ICU's tables into every worker's memory).
public enum Threads {
    /// Starts a detached thread running `body`, named `name` (what `top -H` and a debugger show;
    /// the kernel keeps 15 bytes of it), with `stackSize` bytes of stack (0: pthread's default).
    public static func start(_ name: String, stackSize: Int = 0, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if stackSize > 0 { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { context in
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                Threads.nameThisThread(work.name)
                work.body()
                return nil
            }, work)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            fatalError("cannot start thread \(name): \(String(cString: strerror(started)))")
        }
    }

    /// Pauses the calling thread for `seconds` (at least), resuming after a signal's interruption.
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var asked = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var rest = timespec()
        while nanosleep(&asked, &rest) != 0 && errno == EINTR { asked = rest }
    }

    /// What pthread_setname_np does (which Swift's Glibc module does not show): the name written
    /// to the thread's `comm` file.
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(fd, bytes, bytes.count)
    }

    private final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
