#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, so `ces` works straight from a checkout or an install.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
