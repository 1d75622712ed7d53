// SPDX-License-Identifier: GPL-2.0-only
/*
 * GEM objects: the shmem helper's, with a CPU mapping that faults in a
 * window of pages (2 MiB by default) at a time instead of one.
 *
 * A dumb buffer's pages are all allocated and pinned while it is mapped,
 * so a page fault has nothing to wait for and could map every page at
 * once. The helper maps one page per fault, and a client that draws into
 * a fresh mapping pays a fault per page touched: a 1-pixel column down a
 * 1080-line XRGB8888 buffer is 1080 faults, which igt pays for each paint
 * (it maps and unmaps the buffer around every cairo context). The window
 * cuts that to a fault per 2 MiB touched (figures: the README's Benchmark
 * section, from bench/dumb_paint.c). The cost is a window of page table
 * entries filled for a client that touches one page of it.
 */
#include <linux/mm.h>
#include <linux/module.h>

#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "atomkms_drv.h"

static unsigned int fault_pages = 512;
module_param(fault_pages, uint, 0644);
MODULE_PARM_DESC(fault_pages,
		 "Pages a CPU page fault on a dumb buffer maps, from its aligned window (1 = the shmem helper's one)");

/*
 * Map the faulting page and the pages of its aligned window that the VMA
 * covers. Inserting a page that is mapped already is a no-op.
 *
 * Pages are numbered in the object from vm_pgoff, which the core set to
 * the object's fake offset at mmap time and which moves with the VMA's
 * start when it is split (a partial munmap or mprotect): counting from
 * vm_start instead would map the object's first pages at a split VMA's
 * start.
 */
static vm_fault_t atomkms_gem_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct drm_gem_object *obj = vma->vm_private_data;
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);
	unsigned long num_pages = obj->size >> PAGE_SHIFT;
	unsigned long window = max(READ_ONCE(fault_pages), 1U);
	unsigned long vma_first, vma_end, offset, first, last, i;
	vm_fault_t ret;

	/* The VMA's first page and the faulting page, in the object. */
	vma_first = vma->vm_pgoff - drm_vma_node_start(&obj->vma_node);
	vma_end = vma_first + vma_pages(vma);
	offset = vmf->pgoff - drm_vma_node_start(&obj->vma_node);
	first = max(offset - offset % window, vma_first);
	last = min3(offset - offset % window + window, num_pages, vma_end);

	dma_resv_lock(obj->resv, NULL);
	if (offset >= last || !shmem->pages || shmem->madv < 0) {
		ret = VM_FAULT_SIGBUS;
		goto out;
	}
	ret = vmf_insert_pfn(vma, vmf->address,
			     page_to_pfn(shmem->pages[offset]));
	if (ret != VM_FAULT_NOPAGE)
		goto out;
	for (i = first; i < last; i++) {
		if (i == offset)
			continue;
		if (vmf_insert_pfn(vma, vma->vm_start +
				   ((i - vma_first) << PAGE_SHIFT),
				   page_to_pfn(shmem->pages[i])) !=
		    VM_FAULT_NOPAGE)
			break;
	}
out:
	dma_resv_unlock(obj->resv);
	return ret;
}

/* The helper's open and close pin and unpin the pages for the mapping. */
static void atomkms_gem_vm_open(struct vm_area_struct *vma)
{
	drm_gem_shmem_vm_ops.open(vma);
}

static void atomkms_gem_vm_close(struct vm_area_struct *vma)
{
	drm_gem_shmem_vm_ops.close(vma);
}

static const struct vm_operations_struct atomkms_gem_vm_ops = {
	.fault	= atomkms_gem_fault,
	.open	= atomkms_gem_vm_open,
	.close	= atomkms_gem_vm_close,
};

static const struct drm_gem_object_funcs atomkms_gem_funcs = {
	.free		= drm_gem_shmem_object_free,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= drm_gem_shmem_object_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= drm_gem_shmem_object_vmap,
	.vunmap		= drm_gem_shmem_object_vunmap,
	.mmap		= drm_gem_shmem_object_mmap,
	.vm_ops		= &atomkms_gem_vm_ops,
};

/**
 * atomkms_gem_create_object - &drm_driver.gem_create_object
 * @dev: the device
 * @size: the object's size
 *
 * Return: a shmem GEM object with atomkms' mapping, or an ERR_PTR().
 */
struct drm_gem_object *atomkms_gem_create_object(struct drm_device *dev,
						 size_t size)
{
	struct drm_gem_shmem_object *shmem;

	shmem = kzalloc(sizeof(*shmem), GFP_KERNEL);
	if (!shmem)
		return ERR_PTR(-ENOMEM);
	shmem->base.funcs = &atomkms_gem_funcs;
	return &shmem->base;
}
