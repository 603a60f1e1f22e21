"""Download-free repository rule for Debian's Python 3.

Wraps /usr/bin/python3 (or $PYTHON_BIN_PATH): its headers, including Debian's multiarch
pyconfig.h, as a cc_library, and the interpreter as a py_runtime toolchain, so Bazel never
picks whichever python3 comes first on PATH.
"""

def _python_configure_impl(ctx):
    python = ctx.os.environ.get("PYTHON_BIN_PATH", "/usr/bin/python3")
    res = ctx.execute([python, "-c", "\n".join([
        "import sysconfig",
        "print(sysconfig.get_paths()['include'])",
        "print(sysconfig.get_paths()['platinclude'])",
        "print(sysconfig.get_config_var('MULTIARCH') or '')",
    ])])
    if res.return_code != 0:
        fail("python_configure: %s failed: %s" % (python, res.stderr))
    include, platinclude, multiarch = (res.stdout.strip().split("\n") + ["", "", ""])[:3]
    ctx.symlink(include, "include")
    if platinclude != include:
        ctx.symlink(platinclude, "platinclude")

    # Debian's pyconfig.h includes <MULTIARCH/python3.X/pyconfig.h> from /usr/include.
    extra = ""
    if multiarch:
        header_dir = "/usr/include/%s/%s" % (multiarch, include.rstrip("/").split("/")[-1])
        if ctx.path(header_dir).exists:
            ctx.symlink(header_dir, "multiarch/%s/%s" % (multiarch, include.rstrip("/").split("/")[-1]))
            extra = "multiarch"
    ctx.file("BUILD", """
load("@bazel_tools//tools/python:toolchain.bzl", "py_runtime_pair")

package(default_visibility = ["//visibility:public"])

cc_library(
    name = "python_headers",
    hdrs = glob(["include/**/*.h", "platinclude/**/*.h", "multiarch/**/*.h"]),
    includes = ["include"{platinclude}{multiarch}],
)

py_runtime(
    name = "python3_runtime",
    interpreter_path = "{python}",
    python_version = "PY3",
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":python3_runtime",
)

toolchain(
    name = "python_toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)
""".format(
        python = python,
        platinclude = ', "platinclude"' if platinclude != include else "",
        multiarch = ', "multiarch"' if extra else "",
    ))

python_configure = repository_rule(
    implementation = _python_configure_impl,
    environ = ["PYTHON_BIN_PATH"],
    local = True,
)
