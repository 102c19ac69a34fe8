package io.chronix.engine.wal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link WalKillNineTest}: appends with PER_BATCH from several threads and
 * prints {@code ACK <seq> <payload> END} after each acknowledgement, until it is killed.
 */
public final class WalKillNineChild {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String run = args[1];
        WalConfig config = WalConfig.defaults(dir).withFsyncPolicy(FsyncPolicy.PER_BATCH).withMaxFileSize(128 * 1024);
        WalWriter wal = WalWriter.open(config, new WalMetrics());
        Object out = new Object();
        for (int t = 0; t < 4; t++) {
            int id = t;
            Thread.ofPlatform().start(() -> {
                Random rnd = new Random(run.hashCode() * 31L + id);
                for (int i = 0; ; i++) {
                    String payload = run + "-" + id + "-" + i + "-" + "p".repeat(rnd.nextInt(300));
                    long seq = wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(payload.getBytes(StandardCharsets.US_ASCII)));
                    synchronized (out) {
                        System.out.println("ACK " + seq + " " + payload + " END");
                        System.out.flush();
                    }
                }
            });
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
