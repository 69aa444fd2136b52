// The repository's root folder: the kiosk server's working base (builds, the demo database, the
// site it serves).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
