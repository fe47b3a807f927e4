/**
 * The Python side of one run: sets up sys.argv, the environment, cwd, stdin and sys.path the
 * way CPython's launcher does for `-c`, `-m` and a script, runs the program, turns SystemExit
 * and uncaught exceptions into an exit code and a traceback (without the driver's own frames),
 * and puts the interpreter back as it was so the next run starts clean: modules imported from
 * the workspace (or anywhere outside the standard library) are forgotten, so an edited module
 * is imported afresh.
 */
export const DRIVER_FILENAME = "<tabula-driver>";

export const DRIVER_SOURCE = String.raw`
import builtins, importlib, io, os, runpy, sys, traceback, types

def _tabula_exit_code(code):
    if code is None:
        return 0
    if isinstance(code, bool) or not isinstance(code, int):
        try:
            print(code, file=sys.stderr)
        except Exception:
            pass
        return 1
    return code & 0xFF

def _tabula_print_exception(exc):
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name == ${JSON.stringify("<tabula-driver>")} or name.endswith("runpy.py") or name == "<frozen runpy>":
            tb = tb.tb_next
        else:
            break
    traceback.print_exception(type(exc), exc, tb)

def _tabula_exec_main(source, filename):
    # As CPython runs a script or -c: a fresh __main__ module in sys.modules (unittest.main()
    # and pickle look for it there), __file__ absolute for a script, argv[0] as typed.
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    if filename != "<string>":
        main.__file__ = filename
        main.__cached__ = None
    saved_main = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(compile(source, filename, "exec"), main.__dict__)
    finally:
        if saved_main is not None:
            sys.modules["__main__"] = saved_main

def _tabula_run(kind, target, argv, cwd, env, stdin, path0, extra_path):
    saved_modules = set(sys.modules)
    saved_path = list(sys.path)
    saved_stdin = sys.stdin
    # Fresh standard streams each run: a program that closes sys.stdout must not break the next.
    sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)
    sys.argv = list(argv)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.path[0:0] = [path0] + list(extra_path)
    sys.stdin = io.TextIOWrapper(io.BytesIO(bytes(stdin)), encoding="utf-8", errors="surrogateescape")
    sys.dont_write_bytecode = True
    importlib.invalidate_caches()
    code = 0
    try:
        if kind == "code":
            _tabula_exec_main(target, "<string>")
        elif kind == "module":
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            with io.open_code(target) as f:
                source = f.read()
            _tabula_exec_main(source, target)
    except SystemExit as e:
        code = _tabula_exit_code(e.code)
    except BaseException as e:
        _tabula_print_exception(e)
        code = 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        sys.path[:] = saved_path
        sys.stdin = saved_stdin
        sys.argv = [""]
        for name in list(sys.modules):
            if name in saved_modules:
                continue
            f = getattr(sys.modules[name], "__file__", None) or ""
            if not f.startswith("/lib/"):
                del sys.modules[name]
        os.chdir("/")
    return code
`;
