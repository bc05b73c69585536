import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Lets an HTTP server stop as soon as its last response is out. Node's `server.close()` closes the
 * keep-alive connections idle at that moment, but waits on a connection that was opened and has not
 * sent a request yet (a client's spare or pre-opened connection) until the client drops it, and on
 * connections whose response finishes after the close began. `closeQuiet()` (from a pre-close hook)
 * destroys every connection with no response in flight, and from then on each connection as soon as
 * its responses are done. Responses in flight are never cut.
 */
export function trackQuietConnections(server: Server): { closeQuiet(): void } {
  const open = new Set<Socket>();
  const inFlight = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      inFlight.delete(socket);
    });
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) inFlight.set(socket, left);
      else {
        inFlight.delete(socket);
        if (closing) socket.destroy();
      }
    });
  });
  return {
    closeQuiet() {
      closing = true;
      for (const socket of open) if (!inFlight.has(socket)) socket.destroy();
    },
  };
}
