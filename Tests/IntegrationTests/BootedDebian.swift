import Foundation
import Glibc
import TestSupport

/// A Debian 12 booted for real, systemd as PID 1, in a container (`systemd-nspawn -b`), with
/// the package installed by dpkg inside it: what only a booted systemd can show (socket
/// activation, start limits, `systemctl status`, purge). Its root file system is made once per
/// machine by debootstrap from Debian's archive (with the package's dependencies) and kept in
/// `/var/tmp`; each boot writes to a throwaway layer over it (`--volatile=overlay`). The
/// container shares the host's network, so its worker reaches a dev tenant on loopback.
final class BootedDebian {
    /// Where the root file system is kept between runs (made again when its marker is missing).
    static let cache = "/var/tmp/metadata-demo-bookworm-root"
    private let process: ChildProcess
    /// What the container printed on its console (systemd's boot messages), for a failure to quote.
    private let console: String
    /// The container's PID 1 (systemd), as the host sees it.
    let initPID: pid_t

    /// Boots the kept root file system (making it first if needed) with `package` installed,
    /// then each of `also` (the trial package, say).
    init(package: String, also: [String] = []) throws {
        // One root for every test: made for every package built beside this one (the trial's too),
        // so tests that install different ones do not make it again in turn.
        let folder = (package as NSString).deletingLastPathComponent
        let beside = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".deb") }.map { folder + "/" + $0 }
        try Self.prepareRoot(for: Array(Set([package] + also + beside)).sorted())
        let nspawn = ChildProcess()
        nspawn.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-nspawn")
        nspawn.arguments =
            [
                "--register=no", "--keep-unit", "--quiet", "-D", Self.cache, "--volatile=overlay",
                "--bind-ro=\(package):/root/metadata-demo.deb",
            ] + also.enumerated().map { "--bind-ro=\($1):/root/also-\($0).deb" } + ["-b", "--console=pipe"]
        console = NSTemporaryDirectory() + "booted-debian-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        FileManager.default.createFile(atPath: console, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: console))
        nspawn.standardOutput = output
        nspawn.standardError = output
        nspawn.standardInput = FileHandle.nullDevice
        try nspawn.run()
        process = nspawn
        // The container's PID 1 is the process below nspawn that is PID 1 in its own namespace
        // (its NSpid ends in 1) and runs systemd: not "the first child", since nspawn forks
        // helpers first, and a busy machine may take many seconds to get that far.
        var found: pid_t?
        let deadline = Date().addingTimeInterval(120)
        while found == nil, Date() < deadline, nspawn.isRunning {
            usleep(50_000)
            found = Self.descendants(of: nspawn.processIdentifier).first(where: Self.isContainerInit)
        }
        guard let found else {
            throw StackError("systemd-nspawn started no container; it printed: \(Self.tail(of: console))")
        }
        initPID = found
        // Booted: the container's systemd says so (running, or degraded for a unit of Debian's
        // own that a container lacks). It is asked, not timed: a busy machine boots slower.
        var state = ""
        while !(state == "running" || state == "degraded"), Date() < deadline, nspawn.isRunning {
            usleep(100_000)
            state =
                (try? run("systemctl is-system-running").output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
        }
        guard state == "running" || state == "degraded" else {
            throw StackError("the container did not boot (\(state)); it printed: \(Self.tail(of: console))")
        }
        try check("dpkg -i /root/metadata-demo.deb")
        for index in also.indices { try check("dpkg -i /root/also-\(index).deb") }
    }

    deinit { stop() }

    /// Powers the container off (systemd stops every unit), then makes sure it is gone.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)  // nspawn asks the container's systemd to halt
        for _ in 0..<200 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: console)
    }

    /// Runs `command` with `sh -c` inside the container, as root: its exit status and output.
    @discardableResult
    func run(_ command: String) throws -> (status: Int32, output: String) {
        try Stack.run(
            "/usr/bin/nsenter",
            [
                "-t", String(initPID), "-a", "/usr/bin/env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "/bin/sh",
                "-c", command,
            ])
    }

    /// Runs `command` inside the container; throws with its output unless it succeeds.
    @discardableResult
    func check(_ command: String) throws -> String {
        let (status, output) = try run(command)
        guard status == 0 else { throw StackError("in the container, \(command) failed (\(status)): \(output)") }
        return output
    }

    /// A path inside the container, as the host can open it (a unix socket among them).
    func hostPath(_ path: String) -> String { "/proc/\(initPID)/root" + path }

    /// A unit's property (`systemctl show -p NAME --value UNIT`).
    func property(_ name: String, of unit: String) throws -> String {
        try check("systemctl show -p \(name) --value \(unit)").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func children(of pid: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0) }
    }

    /// Every process below `pid`, nearest first.
    private static func descendants(of pid: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        var next = children(of: pid)
        while let first = next.first {
            next.removeFirst()
            found.append(first)
            next += children(of: first)
        }
        return found
    }

    /// True for a process that is PID 1 of its own PID namespace (the last `NSpid` is 1) and runs systemd.
    private static func isContainerInit(_ pid: pid_t) -> Bool {
        guard command(of: pid) == "systemd",
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("NSpid:") })
        else { return false }
        let ids = line.dropFirst("NSpid:".count).split(whereSeparator: \.isWhitespace)
        return ids.count > 1 && ids.last == "1"
    }

    /// The last lines the container printed.
    private static func tail(of console: String) -> String {
        let text = (try? String(contentsOfFile: console, encoding: .utf8)) ?? "(nothing)"
        return text.split(separator: "\n").suffix(30).joined(separator: "\n")
    }

    private static func command(of pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes the kept root file system when it is missing or was made for other dependencies:
    /// Debian 12 (minbase) with systemd, and what the packages depend on (but themselves).
    private static func prepareRoot(for packages: [String]) throws {
        var names: Set<String> = []
        for package in packages {
            let depends = try Stack.check("/usr/bin/dpkg-deb", ["-f", package, "Depends"])
            for name in depends.split(separator: ",").compactMap({
                $0.split(separator: "|").first?.split(separator: "(").first?.trimmingCharacters(
                    in: .whitespacesAndNewlines)
            }) where !name.isEmpty && !name.hasPrefix("metadata-demo") {
                names.insert(name)
            }
        }
        // nginx always (the guide installs it beside the package): one root for every test.
        // debootstrap follows no virtual package: python3-cryptography's cffi API is named here.
        let virtual = names.contains("python3-cryptography") ? ["python3-cffi-backend"] : []
        let wanted =
            (["systemd", "systemd-sysv", "dbus", "python3-minimal", "nginx"] + virtual + names.subtracting(["nginx"]))
            .sorted().joined(separator: ",")
        let marker = cache + "/.metadata-demo-packages"
        if (try? String(contentsOfFile: marker, encoding: .utf8)) == wanted { return }
        try? FileManager.default.removeItem(atPath: cache)
        try Stack.check(
            "/usr/sbin/debootstrap",
            ["--variant=minbase", "--include=\(wanted)", "bookworm", cache, "http://deb.debian.org/debian"])
        // A package's postinst may have started its daemon in the chroot (nginx on port 80, on
        // the host's network): none may outlive the making, or the container's own cannot start.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/root")) == cache
            else { continue }
            kill(pid, SIGKILL)
        }
        try wanted.write(toFile: marker, atomically: true, encoding: .utf8)
    }
}
