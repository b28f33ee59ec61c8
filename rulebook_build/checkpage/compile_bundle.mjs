// The check page's Python bundle compiled to bytecode by the Pyodide the page runs, at build
// time, so that the browser imports it instead of compiling some 200 modules each time the
// page opens (checkpage/page.py, compiled_bundle).
//
//   node compile_bundle.mjs PYODIDE_DIR SOURCE_ZIP OUT_ZIP
//
// SOURCE_ZIP is python_bundle()'s zip of sources.  OUT_ZIP holds the same entries with every
// .py replaced by its .pyc beside it (sourceless, as `compileall -b` writes them), compiled at
// the path the worker unpacks to, so that a traceback names the page's files; entries sorted
// and dated 1980, as python_bundle's; each .pyc's header holds its source's hash, not a time,
// so the same sources give the same bytes.  Exit 0 and OUT_ZIP written, or exit 1 with the reason on
// stderr and nothing written.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, sourceZip, outZip] = process.argv.slice(2);
const EXTRACT_DIR = "/home/pyodide/rulebook"; // checker-worker.js unpacks there

try {
  const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
  const py = await loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {}, stderr: () => {} });
  py.unpackArchive(new Uint8Array(readFileSync(sourceZip)), "zip", { extractDir: EXTRACT_DIR });
  py.globals.set("EXTRACT_DIR", EXTRACT_DIR);
  const failed = py.runPython(`
import io, os, py_compile, zipfile

def compiled():
    entries = {}
    failed = []
    for folder, _, names in os.walk(EXTRACT_DIR):
        for name in names:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, EXTRACT_DIR)
            if name.endswith(".py"):
                target = path + "c"
                try:
                    py_compile.compile(
                        path,
                        cfile=target,
                        doraise=True,
                        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                    )
                except py_compile.PyCompileError as error:
                    failed.append(f"{relative}: {error.msg}")
                    continue
                entries[relative + "c"] = target
            else:
                entries[relative] = path
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for relative in sorted(entries):
            info = zipfile.ZipInfo(relative, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(entries[relative], "rb") as handle:
                bundle.writestr(info, handle.read())
    with open("/tmp/compiled.zip", "wb") as handle:
        handle.write(buffer.getvalue())
    return "\\n".join(failed)

compiled()
`);
  if (failed) {
    throw new Error("these files do not compile:\n" + failed);
  }
  writeFileSync(outZip, py.FS.readFile("/tmp/compiled.zip"));
} catch (error) {
  process.stderr.write(String(error && error.message ? error.message : error) + "\n");
  process.exit(1);
}
