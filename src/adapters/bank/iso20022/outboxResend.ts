import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BankOutbox, ResentFile } from '../bankOutbox.js';
import { writeFileAtomically } from './files.js';
import { SENT_SUBFOLDER } from './rail.js';

/**
 * Resending a payment file the bank never answered: the bytes the transport delivered (it moves each
 * delivered file to processed/ and never deletes one) are written again under the same name in the
 * outbox, atomically and owner-only, for the transport to deliver again. Never rebuilt: a rebuilt
 * file would carry another creation time, and the bank must see the same message (same MsgId,
 * same bytes), which it either processes once or refuses as a duplicate (DU01).
 */
export class OutboxResender implements BankOutbox {
  constructor(private readonly outboxDir: string) {}

  async resend(msgId: string): Promise<ResentFile | null> {
    const name = `${msgId}.xml`;
    const waiting = await readIfPresent(join(this.outboxDir, name));
    // Still in the outbox: the transport has not delivered it yet, and will; a second copy would race it.
    if (waiting) return { outcome: 'ALREADY_IN_OUTBOX', ...fingerprint(waiting) };
    const delivered = await readIfPresent(join(this.outboxDir, SENT_SUBFOLDER, name));
    if (!delivered) return null;
    await writeFileAtomically(this.outboxDir, name, delivered);
    return { outcome: 'WRITTEN', ...fingerprint(delivered) };
  }

  async waiting(msgId: string): Promise<boolean> {
    try {
      await access(join(this.outboxDir, `${msgId}.xml`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}

function fingerprint(content: Buffer): { sha256: string; bytes: number } {
  return { sha256: createHash('sha256').update(content).digest('hex'), bytes: content.length };
}

async function readIfPresent(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
