/** A child process for the start-up test: opens the store as the app does and prints what happened, as JSON. */
import { Store } from '../../../electron/services/store/store.js';
import { StoreError } from '../../../electron/services/store/open.js';

try {
  Store.open(process.argv[2]!).close();
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (e) {
  process.stdout.write(JSON.stringify(e instanceof StoreError ? { code: e.code, message: e.message } : { other: String(e) }));
}
