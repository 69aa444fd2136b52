// The static service the platform package ships (npm/linux-x64/bin/loyalty_service, copied there
// by scripts/build.mjs from loyalty_service_portable), or a failure that says why it is missing.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { root } from '../../service/harness.js';

export const shippedBinary = path.join(root, 'npm/linux-x64/bin/loyalty_service');
// Where scripts/httplib-source.sh unpacks Debian's source package cpp-httplib (the CMake default
// of LQ_PORTABLE_HTTPLIB_DIR).
const httplibHeader = path.join(root, 'build/deb-src/cpp-httplib/httplib.h');

export function assertShippedBinaryBuilt() {
  if (existsSync(shippedBinary)) return;
  assert.ok(
    existsSync(httplibHeader),
    'loyalty_service_portable skipped: no build/deb-src/cpp-httplib/httplib.h (Debian\'s source ' +
      'package cpp-httplib could not be obtained: run scripts/httplib-source.sh and see its error, ' +
      'then node scripts/build.mjs)',
  );
  assert.fail('build first: node scripts/build.mjs (copies the static service into npm/linux-x64/bin/)');
}
