package io.chronix.engine.wal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link WalKillNineTest}: appends with PER_BATCH from several threads (one
 * of them in 40-record batches of ~120 KiB) and prints {@code ACK <seq> <payload> END} after each
 * acknowledgement, until it is killed.
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
                    if (id == 0) {
                        // a batch larger than the 64 KiB buffer takes several write(2) calls, so a
                        // kill can land between them and leave a real torn tail
                        java.util.List<ByteBuffer> batch = new java.util.ArrayList<>();
                        java.util.List<String> payloads = new java.util.ArrayList<>();
                        for (int k = 0; k < 40; k++) {
                            String payload = run + "-b" + i + "-" + k + "-" + "q".repeat(2000 + rnd.nextInt(2000));
                            payloads.add(payload);
                            batch.add(ByteBuffer.wrap(payload.getBytes(StandardCharsets.US_ASCII)));
                        }
                        long last = wal.appendBatch(WalRecordType.BATCH, batch);
                        synchronized (out) {
                            for (int k = 0; k < payloads.size(); k++) {
                                System.out.println("ACK " + (last - payloads.size() + 1 + k) + " " + payloads.get(k) + " END");
                            }
                            System.out.flush();
                        }
                        continue;
                    }
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
