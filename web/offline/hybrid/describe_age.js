// An age as people read it, for messages about snapshots (and the kiosk's status line).

/** 93784000 -> "1 day 2 h 3 min": an age as people read it. */
export function describeAge(ms) {
  if (!Number.isFinite(ms)) return 'infinitely long';
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return `${Math.floor(Math.max(0, ms) / 1000)} s`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const parts = [];
  if (days > 0) parts.push(`${days} day${days === 1 ? '' : 's'}`);
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes % 60 > 0 && days === 0) parts.push(`${minutes % 60} min`);
  return parts.join(' ');
}
