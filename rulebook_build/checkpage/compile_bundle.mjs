// The check page's Python bundle compiled to bytecode by the Pyodide the page runs, at build
// time, so that the browser imports it instead of compiling some 200 modules each time the
// page opens (checkpage/page.py, compiled_bundle, which writes the bundle from what this
// gives).
//
//   node compile_bundle.mjs PYODIDE_DIR SOURCE_ZIP OUT_ZIP
//
// SOURCE_ZIP is python_bundle()'s zip of sources.  OUT_ZIP holds each of its modules compiled,
// named as the module with "c" added (a sourceless .pyc beside where the source was, as
// `compileall -b` writes them), compiled at the path the worker unpacks to so that a
// traceback names the page's files.  Each .pyc's header holds its source's hash, not a time,
// so the same sources give the same bytes.  Exit 0 and OUT_ZIP written, or exit 1 with the
// reason on stderr and nothing written.
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
import os, py_compile, zipfile

def compiled():
    failed = []
    with zipfile.ZipFile("/tmp/compiled.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for folder, _, names in os.walk(EXTRACT_DIR):
            for name in names:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, EXTRACT_DIR)
                try:
                    py_compile.compile(
                        path,
                        cfile=path + "c",
                        doraise=True,
                        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                    )
                except py_compile.PyCompileError as error:
                    failed.append(f"{relative}: {error.msg}")
                    continue
                bundle.write(path + "c", relative + "c")
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
