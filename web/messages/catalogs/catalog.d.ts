// Types of the catalogs of `loyalty-qualifier/messages/catalogs/*` (German, Brazilian Portuguese):
// each module's default export is a catalog for addCatalog.
import type { MessageCatalog } from '../messages.js';

declare const catalog: MessageCatalog;
export default catalog;
