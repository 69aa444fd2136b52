// Type-level use of the public API, checked by `npm test` (tsc --noEmit). The package is imported
// by its name, through the "exports" of package.json.
import {
  createQualifier,
  diagnostics,
  initQualifier,
  QualifyError,
  type ExplainEntry,
  type ExplainResult,
  type Forwarded,
  type PointsProductEntity,
  type QualifyRequest,
  type QualifyResult,
  type RewardEntity,
  type Snapshot,
  snapshotFromAccount,
  tzRuleFromIntl,
} from 'loyalty-qualifier';

const snapshot: Snapshot = { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [], points_products: [] };
// Extra fields are forwarded by naming them (API spec 2.1 passes them through).
const request: QualifyRequest<{ pos_ref: string }, { pos_line: number }> = {
  pos_ref: 'till-4',
  redemption_venue: 'instore',
  order_timestamp: '2026-03-02T09:00:00Z',
  location_uid: 'cafe-main',
  subtotal: '8.00',
  handoff: 'pickup',
  items: [
    {
      id: 'latte',
      name: 'Latte',
      price: 4.2,
      categories: ['coffee'],
      quantity: 2,
      modifiers: [{ id: 'oat', name: 'Oat milk', price: '0.50', item_base_price: 4.2 }],
      pos_line: 3,
    },
  ],
};

export async function usage(): Promise<void> {
  await initQualifier();
  await initQualifier({ wasm: new URL('https://cdn.example/loyalty_qualifier.wasm') });
  await initQualifier({ wasm: '/assets/loyalty_qualifier.wasm' });
  await initQualifier({ wasm: new Uint8Array(8) });
  await initQualifier({ wasm: new ArrayBuffer(8) });
  await initQualifier({ wasm: fetch('/assets/loyalty_qualifier.wasm') });
  await initQualifier({ wasm: await fetch('/assets/loyalty_qualifier.wasm') });
  await initQualifier({ wasm: await WebAssembly.compile(new Uint8Array(8)) });
  const anything: QualifyRequest<Forwarded, Forwarded> = { till: 4, items: [{ sku: 'x' }] };
  const q = await createQualifier(snapshot, { now: () => new Date() });
  const fromText = await createQualifier(JSON.stringify(snapshot), {
    now: () => 1_772_442_000_000,
  });
  const fixed = await createQualifier(snapshot, { now: new Date('2026-03-02T09:00:00Z') });
  const plain = await createQualifier(snapshot);

  const answer: QualifyResult = q.qualify(request);
  const first: RewardEntity | undefined = answer.rewards[0];
  const retire: string | null | undefined = first?.retire_at;
  const points: number[] = answer.points_products.map((p: PointsProductEntity) => p.points);
  const again: QualifyResult = q.qualify('{"subtotal": 8}');
  const forwarded: QualifyResult = q.qualify(anything);

  const why: ExplainResult = q.explain(request);
  const best: string | null = why.best;
  for (const entry of why.entries) {
    const kind: 'reward' | 'points_product' = entry.kind;
    const codes: string[] = entry.reasons.map((r) => r.code);
    console.log(kind, codes, entry.discount, entry.qualifies);
  }
  const one: ExplainEntry = q.offerOutcome(request, { kind: 'reward', id: 'rw_welcome5' });
  console.log(one.qualifies, one.discount);
  // @ts-expect-error an offer is { kind, id }, not its id alone
  q.offerOutcome(request, 'rw_welcome5');

  try {
    q.setSnapshot('{"schema_version": 2}');
  } catch (e) {
    if (e instanceof QualifyError) {
      const code: number = e.code;
      const body: { code: number; message: string } = e.toJSON();
      console.log(code, body, e.message, e.name);
    }
  }

  const stats = await diagnostics();
  const live: number = stats.liveHandles;
  const disposed: boolean = q.disposed;
  console.log(retire, points, again, forwarded, best, live, disposed, stats.wasmMemoryBytes);
  for (const each of [q, fromText, fixed, plain]) each.dispose();
}

// Misuse the types must reject.
export async function misuse(): Promise<void> {
  const q = await createQualifier(snapshot);
  // @ts-expect-error a venue the API does not know
  q.qualify({ redemption_venue: 'drive-thru' });
  // @ts-expect-error entities are read-only
  q.qualify({}).rewards[0]!.label = 'x';
  // @ts-expect-error the clock must give a Date or a number
  await createQualifier(snapshot, { now: () => 'today' });
  // @ts-expect-error a snapshot needs schema_version
  await createQualifier({ rewards: [] });
  // @ts-expect-error a misspelt top-level field (subtotl) would silently change the answer
  q.qualify({ subtotl: '19.00', items: [] });
  // @ts-expect-error a misspelt item field (quantiy)
  q.explain({ items: [{ id: 'latte', price: '4.20', quantiy: 2 }] });
  // @ts-expect-error a misspelt modifier field (prise)
  q.qualify({ items: [{ id: 'latte', modifiers: [{ id: 'oat', prise: '0.50' }] }] });
  // @ts-expect-error an extra field that is not named is not forwarded silently
  const unnamed: QualifyRequest = { subtotal: '8.00', pos_ref: 'till-4' };
  console.log(unnamed);
}

// The loyalty service's own account read as a snapshot, and zone rules from Intl.
export async function fromAccountRead(): Promise<void> {
  const snapshot: Snapshot = snapshotFromAccount(
    { id: 'u_1', rewards: [{ id: 'r', value: '5.00', type: 'amount' }], points_balances: [{ points_experience_id: 'p', balance: 10 }] },
    { merchantId: 'm', venue: 'instore', timeZone: 'America/New_York', fetchedAt: new Date() },
  );
  const rule: string = tzRuleFromIntl('Europe/Paris', { at: Date.now() });
  (await createQualifier(snapshot)).dispose();
  void rule;
  // @ts-expect-error the context needs merchantId
  snapshotFromAccount({}, { venue: 'instore' });
  // @ts-expect-error a venue the account read does not know
  snapshotFromAccount({}, { merchantId: 'm', venue: 'drive-thru' });
}
