import { Global, Module } from '@nestjs/common';
import { LeaseExpiryWatch } from './lease-expiry-watch.js';
import { ReplicaLiveness } from './replica-liveness.js';
import { TurnLeases } from './turn-leases.js';
import { SessionDrain } from './session-drain.js';
import { SessionInterrupts } from './session-interrupts.js';
import { SessionWakeups } from './session-wakeups.js';

/** The machinery under every turn: wake-ups, the drain loop and its lease, takeovers, interrupts. */
@Global()
@Module({
  providers: [SessionWakeups, SessionDrain, LeaseExpiryWatch, SessionInterrupts, ReplicaLiveness, TurnLeases],
  exports: [SessionWakeups, SessionDrain, SessionInterrupts, TurnLeases],
})
export class DrainModule {}
