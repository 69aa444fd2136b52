// The kiosk server's own messages: stderr, each line prefixed "kiosk: " (stdout carries only the
// page URL).
import process from 'node:process';

export function log(message) {
  process.stderr.write(`kiosk: ${message}\n`);
}
