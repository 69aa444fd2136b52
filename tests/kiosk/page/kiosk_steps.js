// What a guest does on the kiosk page, as the browser tests drive it: a latte into the basket,
// and an order checked out and placed while the service is down. Each step waits for what the
// page shows once it is done.

/** Adds a latte (the coffee category, the customize dialog's add) and waits for its basket line. */
export async function addLatte(page) {
  await page.locator('#categories label:has(input[value="coffee"])').click();
  await page.locator('button.item[data-id="latte"]').click();
  await page.locator('#customize-add').click();
  await page.waitForFunction(() => !document.getElementById('customize').open);
  await page.waitForSelector('#lines li[data-key^="latte"]');
}

/**
 * Checks out the basket offline, places the order (queued) and starts a new one; resolves the
 * checkout dialog's texts: `offered` before paying, `placed` after.
 */
export async function placeOffline(page) {
  await page.locator('#checkout').click();
  await page.waitForSelector('#pay');
  const offered = await page.locator('#checkout-dialog').textContent();
  await page.locator('#pay').click();
  await page.waitForSelector('#checkout-dialog [data-status="queued"]');
  const placed = await page.locator('#checkout-dialog').textContent();
  await page.locator('#new-order').click();
  return { offered, placed };
}
