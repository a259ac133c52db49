package dev.vigil.observe.bridge;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Vigil's own class loader: it defines the classes stored under {@code inst/} in {@code vigil.jar}
 * (class files renamed to {@code .classdata}, so that no other loader finds them). Its parent is
 * the platform class loader, so Vigil's Byte Buddy, Jackson and Chronicle never meet the
 * application's copies, and the application never sees Vigil's.
 */
public final class InstLoader extends ClassLoader {
  static final String PREFIX = "inst/";
  private static final String CLASS_DATA = ".classdata";

  static {
    registerAsParallelCapable();
  }

  private static final String BRIDGE_PACKAGE = "dev.vigil.observe.bridge.";

  private final JarFile jar;
  private final String jarUrl;
  private final ProtectionDomain domain;
  private final ClassLoader agentLoader;

  /**
   * A loader for the {@code inst/} part of the agent jar at {@code jarFile}.
   *
   * @param parent the platform class loader
   * @param agentLoader the loader of this package (the system class loader), which every
   *     application class sees: the bridge classes are taken from it so that Vigil and the
   *     application share them
   */
  public InstLoader(File jarFile, ClassLoader parent, ClassLoader agentLoader) throws IOException {
    super("vigil", parent);
    this.agentLoader = agentLoader;
    this.jar = new JarFile(jarFile, false);
    URL location = jarFile.toURI().toURL();
    this.jarUrl = "jar:" + location + "!/";
    this.domain =
        new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null, this, null);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (name.startsWith(BRIDGE_PACKAGE)) {
      return agentLoader.loadClass(name);
    }
    return super.loadClass(name, resolve);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    String path = name.replace('.', '/');
    JarEntry entry = jar.getJarEntry(PREFIX + path + CLASS_DATA);
    if (entry == null) {
      throw new ClassNotFoundException(name);
    }
    byte[] bytes;
    try (InputStream in = jar.getInputStream(entry)) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      String pkg = name.substring(0, dot);
      if (getDefinedPackage(pkg) == null) {
        try {
          definePackage(pkg, null, null, null, null, null, null, null);
        } catch (IllegalArgumentException alreadyDefinedByAnotherThread) {
          // fine
        }
      }
    }
    return defineClass(name, bytes, 0, bytes.length, domain);
  }

  /**
   * A resource of {@code inst/} read straight from the jar, without the URL machinery that {@link
   * #getResource} opens (a dozen classes to load when the instrumenter first reads a class file of
   * Vigil's own). The parent's resources come first, as {@code getResource} does, except a class
   * file that the jar holds: the platform loader defines none of Vigil's classes, and asking it
   * first opens the JDK's module image to look, a few milliseconds of the agent's start.
   */
  @Override
  public InputStream getResourceAsStream(String name) {
    boolean classFile = name.endsWith(".class");
    if (!classFile) {
      InputStream parents = getParent().getResourceAsStream(name);
      if (parents != null) {
        return parents;
      }
    }
    JarEntry entry = jar.getJarEntry(entryName(name));
    if (entry == null) {
      return classFile ? getParent().getResourceAsStream(name) : null;
    }
    try {
      return jar.getInputStream(entry);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  protected URL findResource(String name) {
    String entryName = entryName(name);
    if (jar.getJarEntry(entryName) == null) {
      return null;
    }
    try {
      return new URL(jarUrl + entryName);
    } catch (MalformedURLException e) {
      return null;
    }
  }

  /** The entry under {@code inst/} that holds the resource {@code name}. */
  private static String entryName(String name) {
    return name.endsWith(".class")
        ? PREFIX + name.substring(0, name.length() - ".class".length()) + CLASS_DATA
        : PREFIX + name;
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    URL url = findResource(name);
    return url == null
        ? Collections.emptyEnumeration()
        : Collections.enumeration(Collections.singleton(url));
  }
}
