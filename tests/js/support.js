// Paths and fixtures shared by the JS tests.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The conformance cases: ../shared/cases/public.json beside the repo, else the bundled copy. */
export function publicCasesPath() {
  const shared = path.resolve(root, '../shared/cases/public.json');
  return existsSync(shared) ? shared : path.join(root, 'tests/cases/public.json');
}

export function loadPublicCases() {
  return JSON.parse(readFileSync(publicCasesPath(), 'utf8'));
}

export function readJson(relativePath) {
  return JSON.parse(readFileSync(path.join(root, relativePath), 'utf8'));
}

/** The example request (examples/basket.json) expects these, in this order. */
export const exampleRewards = [
  'rw_downtown_pastry',
  'rw_bogo_croissant',
  'rw_free_latte',
  'rw_welcome5',
  'rw_breakfast_20',
  'rw_oat_milk',
];
export const examplePointsProducts = ['pp_two_off', 'pp_pastry'];
