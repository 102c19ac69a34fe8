package io.chronix.it.console;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Pattern;

/**
 * Headless Debian Chromium through chromedriver, as root needs it ({@code --no-sandbox}), with no
 * network of its own (no background requests, no driver download: {@code SE_OFFLINE}). Collects
 * the browser's console log so a test can insist it holds no error, and saves screenshots.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;
    final Path downloads;
    private final List<String> errors = new ArrayList<>();

    private Browser(ChromeDriver driver, ChromeDriverService service, Path profile, Path downloads) {
        this.driver = driver;
        this.service = service;
        this.profile = profile;
        this.downloads = downloads;
    }

    /** A browser; without Chromium the test is skipped, except under {@code CI=true}, where it fails. */
    static Browser start() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present) {
            String why = "Chromium not installed [chromium=" + CHROMIUM + ", chromedriver=" + CHROMEDRIVER + "]; apt-get install chromium chromium-driver";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(why);
            }
            Assumptions.abort(why);
        }
        Path profile = Files.createTempDirectory("chronix-chromium");
        Path downloads = Files.createDirectories(profile.resolve("downloads"));
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--user-data-dir=" + profile, "--window-size=1366,900", "--lang=en-US");
        o.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        o.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(), "download.prompt_for_download", false));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, o), service, profile, downloads);
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement await(String css) {
        return new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    void awaitGone(String css) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(css), 0));
    }

    void awaitText(String css, String text) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
    }

    /** Goes to a console page by its navigation link and waits until it has rendered. */
    void page(String name) {
        driver.findElement(By.cssSelector("nav a[data-page='" + name + "']")).click();
        await("[data-page='" + name + "'][data-ready='true']");
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Saves a PNG of the viewport to {@code target/console-screenshots/<name>.png}. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /** Saves the whole page, as tall as its content, at the given width. */
    Path fullPage(String name, int width) throws IOException {
        Dimension before = driver.manage().window().getSize();
        long height = ((Number) js("return Math.ceil(document.documentElement.scrollHeight)")).longValue();
        driver.manage().window().setSize(new Dimension(width, (int) Math.min(4000, Math.max(600, height + 140))));
        try {
            return screenshot(name);
        } finally {
            driver.manage().window().setSize(before);
        }
    }

    /**
     * The SEVERE entries of the browser's console since the last call, except those matching
     * {@code expected} (a request the test made fail on purpose is logged by Chromium).
     */
    List<String> consoleErrors(Pattern... expected) {
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()
                    && java.util.Arrays.stream(expected).noneMatch(p -> p.matcher(e.getMessage()).find())) {
                errors.add(e.getMessage());
            }
        }
        List<String> out = List.copyOf(errors);
        errors.clear();
        return out;
    }

    /** The controls on the page without a label (a {@code <label for>}, a wrapping label or an aria-label). */
    @SuppressWarnings("unchecked")
    List<String> unlabelledControls() {
        return (List<String>) js("""
                return [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
                  .filter(c => c.offsetParent !== null)
                  .filter(c => !(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !(c.tagName === 'BUTTON' && c.textContent.trim()))
                  .map(c => c.outerHTML.slice(0, 120));""");
    }

    /**
     * Pixels of a canvas in colour (not white, grey or black: the axes and grid are grey, the
     * series are coloured), read back through the 2D context.
     */
    long colouredPixels(String canvasCss) {
        return ((Number) js("""
                const c = document.querySelector(arguments[0]);
                if (!c) return -1;
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                let n = 0;
                for (let i = 0; i < d.length; i += 4) {
                  const [r, g, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
                  if (a > 64 && Math.max(r, g, b) - Math.min(r, g, b) > 40) n++;
                }
                return n;""", canvasCss)).longValue();
    }

    /** What the page shows and what the console logged, saved with a screenshot, for a failing test's message. */
    String diagnose(String name) {
        try {
            screenshot("failure-" + name);
            return "url=" + driver.getCurrentUrl() + "\nmain:\n" + driver.findElement(By.tagName("body")).getText()
                    + "\nconsole: " + driver.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::toString).toList();
        } catch (RuntimeException | IOException e) {
            return "(no diagnosis: " + e + ")";
        }
    }

    /** The text of a file the browser downloaded, once it is complete. */
    String downloaded(String fileName) {
        Path file = downloads.resolve(fileName);
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> Files.isRegularFile(file)
                && !Files.exists(downloads.resolve(fileName + ".crdownload")));
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    String cookie(String name) {
        var c = driver.manage().getCookieNamed(name);
        return c == null ? null : c.getValue();
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            service.stop();
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }
}
