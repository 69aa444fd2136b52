// The menu's words in the guest's language: menu.json's `translations`, one catalog per language
// of ids to words (`item.<id>`, `item.<id>.description`, `category.<id>`, `modifier.<id>`,
// `group.<id>`), else the menu's own word (the merchant's). What the basket sends to the service
// (an item's `name`) stays the merchant's word: only what the guest reads is translated.
import { language } from '../language/language.js';
import { state } from '../state.js';

const merchantMenu = () => state.menus?.[state.merchant?.menu] ?? null;

function word(key, fallback) {
  const translations = merchantMenu()?.translations ?? {};
  return translations[language()]?.[key] ?? fallback;
}

export const itemName = (item) => word(`item.${item.id}`, item.name);
export const itemDescription = (item) => word(`item.${item.id}.description`, item.description ?? '');
export const categoryName = (category) => word(`category.${category.id}`, category.name);
export const modifierName = (modifier) => word(`modifier.${modifier.id}`, modifier.name);

/** A modifier group's name (groups have no name of their own: the labels' language's, else the id). */
export function groupName(groupId) {
  const labels = merchantMenu()?.translations?.[state.merchant?.labels_language ?? 'en'];
  return word(`group.${groupId}`, labels?.[`group.${groupId}`] ?? groupId.replace(/_/g, ' '));
}

/** The name of a product id (an item or a modifier of the menu), for offers restricted to it; undefined when the menu has none. */
export function productName(id) {
  const menu = merchantMenu();
  const item = menu?.items.find((i) => i.id === id);
  if (item) return itemName(item);
  const modifier = Object.values(menu?.modifier_groups ?? {}).flat().find((m) => m.id === id);
  return modifier ? modifierName(modifier) : undefined;
}

/** The name of a category id, for offers restricted to it; undefined when the menu has none. */
export function categoryNameOf(id) {
  const category = merchantMenu()?.categories.find((c) => c.id === id);
  return category ? categoryName(category) : undefined;
}
