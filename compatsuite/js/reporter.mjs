// A node:test reporter that writes one JSON line per finished test, for
// compatsuite_test.go to read:
//   {"name","file","nesting","status":"pass"|"fail"|"skip"|"todo","reason","durationMs","error"}
// "reason" is the skip or todo message. A file that fails outside any test
// (an import error, a failing before hook) is reported as a failed test
// named after the file.
export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const d = event.data;
    let status = event.type === "test:pass" ? "pass" : "fail";
    let reason;
    if (status === "pass" && d.skip !== undefined) {
      status = "skip";
      reason = typeof d.skip === "string" ? d.skip : "";
    } else if (status === "pass" && d.todo !== undefined) {
      status = "todo";
      reason = typeof d.todo === "string" ? d.todo : "";
    }
    const err = d.details?.error;
    yield JSON.stringify({
      name: d.name,
      file: d.file,
      nesting: d.nesting,
      status,
      reason,
      durationMs: d.details?.duration_ms,
      error: err ? String(err.cause ?? err) : undefined,
    }) + "\n";
  }
}
