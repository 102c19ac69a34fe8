package io.chronix.engine.wal;

import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.SimulatedFileIO;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Shared helpers of the WAL tests: a simulated directory, configs, replay into a list. */
final class WalFixtures {

    static final Path DIR = Path.of("/sim/ns/wal");

    private WalFixtures() {
    }

    /** A record as replayed, payload copied out of the reader's buffer. */
    record Replayed(long sequence, WalRecordType type, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Replayed r && r.sequence == sequence && r.type == type && Arrays.equals(r.payload, payload);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(sequence) * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Replayed[" + sequence + ", " + type + ", " + payload.length + " bytes]";
        }
    }

    static SimulatedFileIO simulated() {
        SimulatedFileIO io = new SimulatedFileIO();
        io.createDirectories(DIR);
        return io;
    }

    static WalConfig config(FileIO io, FsyncPolicy policy) {
        return WalConfig.defaults(DIR).withIo(io).withFsyncPolicy(policy);
    }

    static ByteBuffer payload(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Recovers the log (cutting a torn tail as open does) and returns every record in it. */
    static List<Replayed> recover(WalConfig config, WalMetrics metrics) {
        List<Replayed> out = new ArrayList<>();
        WalWriter w = WalWriter.open(config, metrics, 0, r -> out.add(new Replayed(r.sequence(), r.type(), r.payloadBytes())));
        w.close();
        return out;
    }

    static List<Replayed> recover(WalConfig config) {
        return recover(config, new WalMetrics());
    }

    /** Scans without changing anything. */
    static List<Replayed> scan(FileIO io, Path dir, List<Replayed> out) {
        WalReader.scan(io, dir, r -> out.add(new Replayed(r.sequence(), r.type(), r.payloadBytes())));
        return out;
    }
}
