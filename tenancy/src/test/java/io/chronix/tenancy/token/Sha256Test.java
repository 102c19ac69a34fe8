package io.chronix.tenancy.token;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class Sha256Test {

    /** The FIPS 180-2 examples, and a non-ASCII text hashed as its UTF-8 bytes. */
    @Test
    void digestsAreTheStandardOnes() {
        assertThat(HexFormat.of().formatHex(Sha256.of("abc")))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(HexFormat.of().formatHex(Sha256.of("")))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(Sha256.of("\u00e9")).isEqualTo(Sha256.of(new String(new byte[] {(byte) 0xc3, (byte) 0xa9},
                java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** Calls from many threads at once do not share state: each gets its own text's digest. */
    @Test
    void concurrentCallsDoNotMixTheirTexts() throws Exception {
        List<String> texts = IntStream.range(0, 2_000).mapToObj(i -> "cx_token_" + i).toList();
        List<byte[]> expected = texts.stream().map(Sha256::of).toList();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Callable<Boolean>> tasks = IntStream.range(0, 4).<Callable<Boolean>>mapToObj(t -> () -> {
                for (int round = 0; round < 5; round++) {
                    for (int i = 0; i < texts.size(); i++) {
                        if (!java.util.Arrays.equals(Sha256.of(texts.get(i)), expected.get(i))) {
                            return false;
                        }
                    }
                }
                return true;
            }).toList();
            for (Future<Boolean> f : pool.invokeAll(tasks)) {
                assertThat(f.get()).isTrue();
            }
        }
    }
}
