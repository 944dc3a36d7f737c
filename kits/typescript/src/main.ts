/*
 * Entry point: `node dist/main.js` serves GCP/2 on stdin/stdout (docs/checking/protocol.md).
 * The engine is in game.ts; the protocol loop (protocol-loop.ts) should need no change.
 */
import { ENGINE, Game } from './game';
import { serve } from './protocol-loop';

serve(ENGINE, (setup) => new Game(setup));
