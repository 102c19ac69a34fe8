package io.chronix.archive.store;

import io.chronix.engine.error.SegmentNotFoundException;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.ObjectInfo;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.ShardId;
import io.chronix.engine.storage.StorageBackend;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What every {@link StorageBackend} does; each backend's test extends this. */
abstract class StorageBackendContract {

    protected abstract StorageBackend backend();

    private static SegmentPath path(long ns, long shard, String name) {
        return new SegmentPath(new NamespaceId(ns), new ShardId(shard), name);
    }

    @Test
    void putThenGetReturnsTheSameBytesAndReplaceWins() {
        SegmentPath p = path(1, 10, "seg_1_0.parquet");
        backend().put(p, "first".getBytes(StandardCharsets.UTF_8));
        backend().put(p, "second".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(backend().get(p), StandardCharsets.UTF_8)).isEqualTo("second");
        assertThat(backend().exists(p)).isTrue();
    }

    @Test
    void rangeReadsReturnTheSliceAndStopAtTheEnd() {
        SegmentPath p = path(1, 11, "range");
        backend().put(p, "0123456789".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(backend().getRange(p, 2, 3), StandardCharsets.UTF_8)).isEqualTo("234");
        assertThat(new String(backend().getRange(p, 8, 100), StandardCharsets.UTF_8)).isEqualTo("89");
        assertThat(backend().getRange(p, 10, 5)).isEmpty();
    }

    @Test
    void missingObjectIsATypedNotFound() {
        SegmentPath p = path(1, 12, "absent");
        assertThat(backend().exists(p)).isFalse();
        assertThatThrownBy(() -> backend().get(p)).isInstanceOf(SegmentNotFoundException.class)
                .hasMessageContaining("ns_1/shard_12/absent");
        backend().delete(p); // deleting a missing object is not an error
    }

    @Test
    void listingIsScopedToOneNamespace() {
        backend().put(path(2, 1, "a"), new byte[]{1});
        backend().put(path(2, -3, "b"), new byte[]{2});
        backend().put(path(22, 1, "c"), new byte[]{3});
        assertThat(backend().list(new NamespaceId(2))).extracting(SegmentPath::key)
                .containsExactlyInAnyOrder("ns_2/shard_1/a", "ns_2/shard_-3/b");
        assertThat(backend().list(new NamespaceId(22))).extracting(SegmentPath::key).containsExactly("ns_22/shard_1/c");
        assertThat(backend().list(new NamespaceId(3))).isEmpty();
    }

    @Test
    void deleteRemovesTheObject() {
        SegmentPath p = path(4, 1, "gone");
        backend().put(p, new byte[]{9});
        backend().delete(p);
        assertThat(backend().exists(p)).isFalse();
        assertThat(backend().list(new NamespaceId(4))).isEmpty();
    }

    @Test
    void statGivesTheSizeAndANewTagForReplacedContent() {
        SegmentPath p = path(5, 1, "stat");
        backend().put(p, new byte[] {1, 2, 3});
        ObjectInfo first = backend().stat(p);
        assertThat(first.sizeBytes()).isEqualTo(3);
        assertThat(first.etag()).isNotBlank();
        backend().put(p, new byte[] {4, 5, 6, 7});
        ObjectInfo second = backend().stat(p);
        assertThat(second.sizeBytes()).isEqualTo(4);
        assertThat(second.etag()).isNotEqualTo(first.etag());
        assertThatThrownBy(() -> backend().stat(path(5, 1, "absent"))).isInstanceOf(SegmentNotFoundException.class);
    }

    @Test
    void theAsynchronousFaceDoesWhatTheBlockingOneDoes() throws Exception {
        SegmentPath p = path(6, 2, "async");
        CompletableFuture<Void> put = backend().putAsync(p, "abcdef".getBytes(StandardCharsets.UTF_8));
        put.get(30, TimeUnit.SECONDS);
        assertThat(backend().existsAsync(p).get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(backend().getAsync(p).get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("abcdef");
        assertThat(new String(backend().getRangeAsync(p, 1, 2).get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("bc");
        assertThat(backend().listAsync(new NamespaceId(6)).get(30, TimeUnit.SECONDS)).containsExactly(p);
        backend().deleteAsync(p).get(30, TimeUnit.SECONDS);
        assertThat(backend().exists(p)).isFalse();
        assertThatThrownBy(() -> backend().getAsync(p).get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SegmentNotFoundException.class);
    }

    @Test
    void storeReportsItselfAvailable() {
        backend().checkAvailable();
        assertThat(backend().describe()).isNotBlank();
    }
}
