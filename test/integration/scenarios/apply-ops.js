// What `edits-ops` runs as the agent's own command: applies the file operations in argv[2] (JSON) to the disk, the
// way an agent's shell tool would — no fs/*, no terminal/*. Operations: {op: 'write', path, base64},
// {op: 'delete', path}, {op: 'rename', from, to}; paths relative to the current folder; ones that cannot apply are
// skipped (a delete of a file that is not there).
const fs = require('node:fs');
const path = require('node:path');

for (const o of JSON.parse(process.argv[2])) {
  try {
    if (o.op === 'write') {
      fs.mkdirSync(path.dirname(o.path), { recursive: true });
      fs.writeFileSync(o.path, Buffer.from(o.base64, 'base64'));
    } else if (o.op === 'delete') {
      fs.rmSync(o.path, { force: true });
    } else if (o.op === 'rename' && fs.existsSync(o.from)) {
      fs.mkdirSync(path.dirname(o.to), { recursive: true });
      fs.renameSync(o.from, o.to);
    }
  } catch (e) {
    process.stderr.write(`apply-ops: ${o.op}: ${e.message}\n`);
  }
}
