import Synchronization

/// Memory a command that ends with its build leaves to the process's exit, which hands it back
/// to the kernel at once, where freeing a million cards string by string would keep the user
/// waiting after the site is written. Only for commands that end with one build (`build`,
/// `check`), never `serve`, which builds again and again.
enum LeftToExit {
    /// A global, which Swift never destroys: what it holds is freed by the exit alone.
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` alive until the process exits.
    static func keep<Value: Sendable>(_ value: Value) {
        kept.withLock { $0.append(value) }
    }
}
