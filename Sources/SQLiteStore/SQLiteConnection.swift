internal import CSQLite
import Web

/// One SQLite connection (`sqlite3*`), closed in `deinit`. Not safe to share between threads:
/// its owner guards it with a lock.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private let path: String

    /// Opens (creating if needed) the database at `path`, waiting up to `busySeconds` for a lock
    /// held by another process. - SeeAlso: `sqlite3_open_v2`, `sqlite3_busy_timeout`.
    init(path: String, busySeconds: Double) throws(SharedStoreError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let text = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close(db) }
            throw SharedStoreError("SQLite \(path): cannot open (\(text))")
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, Int32(busySeconds * 1000))
    }

    deinit { sqlite3_close(handle) }

    /// Runs statements that return no rows. - SeeAlso: `sqlite3_exec`.
    func execute(_ sql: String) throws(SharedStoreError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error("exec") }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: the write lock is taken first, so
    /// two writers never deadlock upgrading), committed when it returns, rolled back when it throws.
    func transaction<Result>(_ body: () throws(SharedStoreError) -> Result) throws(SharedStoreError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do throws(SharedStoreError) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs one statement with `bindings` and returns its rows (each a list of column values).
    func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SharedStoreError) -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("prepare")
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                let bytes = Array(text.utf8)
                status = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        CSQLite_bindText(statement, index, $0.baseAddress, Int32($0.count))
                    }
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { CSQLite_bindBlob(statement, index, $0.baseAddress, Int32($0.count)) }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw error("bind") }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error("step") }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    /// Rows changed by the last statement. - SeeAlso: `sqlite3_changes`.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func error(_ operation: String) -> SharedStoreError {
        SharedStoreError("SQLite \(path): \(operation) failed (\(String(cString: sqlite3_errmsg(handle))))")
    }
}

/// A value bound to or read from a statement.
enum SQLiteValue: Equatable {
    case integer(Int64), real(Double), text(String), blob([UInt8]), null

    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
}
